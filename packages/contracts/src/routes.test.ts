import { describe, expect, it } from 'vitest';
import type { Endpoint } from './endpoint.ts';
import { ENDPOINTS, endpointsOf } from './endpoints.ts';
import { routeTable } from './route-table.ts';
import { ROUTES } from './routes.ts';

describe('the declarations', () => {
  it('give the console route table exactly (else run npm run gen:routes)', () => {
    expect(ROUTES).toEqual(routeTable());
  });

  it('name every endpoint by its key, and each belongs to one program', () => {
    for (const [name, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
      expect(endpoint.name).toBe(name);
      expect(['server', 'hub']).toContain(endpoint.program);
    }
    expect(endpointsOf('server').length + endpointsOf('hub').length).toBe(Object.keys(ENDPOINTS).length);
  });
});
