/** The SSO connector screen (lazy chunk). */
export { SsoConnector } from './SsoConnector.tsx';
