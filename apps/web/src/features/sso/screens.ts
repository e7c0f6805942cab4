/** The SSO connector screen (issue 13). */
export { SsoConnector } from './SsoConnector.tsx';
