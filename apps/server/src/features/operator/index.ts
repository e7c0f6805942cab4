// The operator feature's public entry: the server's command line (src/cli.ts) uses it.
export { createOperatorService, type OperatorService } from './operator.service.ts';
