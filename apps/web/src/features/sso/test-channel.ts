import { SSO_TEST_CHANNEL } from '@latchkey/contracts/client';

/**
 * The SSO tester's messages (spec §4 SSO return): the test window sends its result on a
 * BroadcastChannel until the settings page acknowledges it, then closes.
 */
export type TestMessage =
  | { type: 'sso_test_result'; saml_request_id: string; status: 'success' | 'failed'; response_key: string | null }
  | { type: 'sso_test_ack'; saml_request_id: string };

export const openTestChannel = () => new BroadcastChannel(SSO_TEST_CHANNEL);

/** The test window's side: repeats the result every 300 ms until acknowledged; resolves then. */
export function reportTestResult(message: Extract<TestMessage, { type: 'sso_test_result' }>): Promise<void> {
  const channel = openTestChannel();
  return new Promise((resolve) => {
    const send = () => channel.postMessage(message);
    const timer = setInterval(send, 300);
    channel.onmessage = (event: MessageEvent<TestMessage>) => {
      if (event.data?.type === 'sso_test_ack' && event.data.saml_request_id === message.saml_request_id) {
        clearInterval(timer);
        channel.close();
        resolve();
      }
    };
    send();
  });
}
