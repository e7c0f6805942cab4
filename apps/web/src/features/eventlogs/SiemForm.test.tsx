import type { SiemTool } from '@latchkey/contracts/client';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { setupI18n } from '../../lib/i18n.ts';
import { theme } from '../../lib/theme.ts';
import { SiemFormModal } from './SiemForm.tsx';

const SECRET_AGAIN = 'The destination changed: enter the secret again. A stored secret is never sent to a new address.';

const stored = (siem_tool: SiemTool['siem_tool'], config: SiemTool['config']): SiemTool => ({
  id: '5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11',
  siem_tool,
  is_active: false,
  status: 'inactive',
  last_synced: null,
  config,
  has_secret: true,
  health: {
    cursor_seq: 0,
    head_seq: 0,
    lag: 0,
    delivered_count: 0,
    last_error: null,
    last_success_at: null,
    last_attempt_at: null,
  },
});

const edit = (existing: SiemTool) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider theme={theme}>
        <SiemFormModal tool={existing.siem_tool} existing={existing} onClose={() => undefined} />
      </MantineProvider>
    </QueryClientProvider>,
  );
const field = (name: string) => screen.getByTestId(`siem-${name}`) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const save = () => screen.getByTestId('siem-save') as HTMLButtonElement;

beforeAll(async () => {
  await setupI18n();
});
afterEach(cleanup);

describe('editing a SIEM destination with a stored secret', () => {
  test('Splunk: another port asks for the token again, with the reason; the token given, it may save', () => {
    edit(stored('splunk', { url: 'https://splunk.example.com', port: '8088', path: '', allow_unverified_certificate: false }));
    expect(field('token').placeholder).toBe('Stored; leave empty to keep it');
    expect(screen.queryByText(SECRET_AGAIN)).toBeNull();
    type('path', '/services/collector/event');
    type('port', '8089');
    expect(screen.getByText(SECRET_AGAIN)).toBeTruthy();
    expect(field('token').placeholder).toBe('');
    expect(save().disabled).toBe(true);
    type('token', 'a-new-hec-token');
    expect(save().disabled).toBe(false);
  });

  test('webhook: not checking the certificate any more asks for the token (and the signing secret) again', () => {
    edit(stored('other', { url: 'https://hooks.example.com/in', allow_unverified_certificate: false }));
    fireEvent.click(field('allow_unverified_certificate'));
    expect(screen.getAllByText(SECRET_AGAIN)).toHaveLength(2);
    expect(save().disabled).toBe(true);
  });

  test('Sentinel Logs Ingestion: another stream keeps the secret, another endpoint does not', () => {
    edit(
      stored('azure_sentinel', {
        api: 'logs_ingestion',
        tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        client_id: '0d8f3b1e-5a2c-4e7f-9b6d-3c1a2e4f5d60',
        dce_endpoint: 'https://my-dce.eastus-1.ingest.monitor.azure.com',
        dcr_immutable_id: 'dcr-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
        stream_name: 'Custom-LatchkeyEvents',
      }),
    );
    type('stream_name', 'Custom-Other');
    expect(screen.queryByText(SECRET_AGAIN)).toBeNull();
    expect(save().disabled).toBe(false);
    type('dce_endpoint', 'https://listener.example.net');
    expect(screen.getByText(SECRET_AGAIN)).toBeTruthy();
    expect(save().disabled).toBe(true);
  });
});

describe('a new webhook and its signing secret', () => {
  const create = () =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MantineProvider theme={theme}>
          <SiemFormModal tool="other" existing={null} onClose={() => undefined} />
        </MantineProvider>
      </QueryClientProvider>,
    );

  test('the form makes one (256 random bits), shows it, makes another on request, and refuses the token or a short one', () => {
    create();
    const made = field('signing_secret').value;
    expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(field('signing_secret').type).toBe('text');
    fireEvent.click(screen.getByTestId('siem-signing_secret-generate'));
    expect(field('signing_secret').value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(field('signing_secret').value).not.toBe(made);
    type('url', 'https://hooks.example.com/in');
    type('token', 'a-token-the-endpoint-gave-out-0123456789');
    expect(save().disabled).toBe(false);
    type('signing_secret', 'a-token-the-endpoint-gave-out-0123456789');
    fireEvent.blur(field('signing_secret'));
    expect(screen.getByText('The signing secret must not be the token')).toBeTruthy();
    expect(save().disabled).toBe(true);
    type('signing_secret', 'short');
    fireEvent.blur(field('signing_secret'));
    expect(screen.getByText('Use at least 32 characters')).toBeTruthy();
  });
});
