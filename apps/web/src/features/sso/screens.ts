/** The SSO connector screen, its own lazy chunk. */
export { SsoConnector } from './SsoConnector.tsx';
