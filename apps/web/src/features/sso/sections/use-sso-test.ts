import { useEffect, useRef, useState } from 'react';
import { startSsoTest, useSsoRefresh } from '../api.ts';
import { openTestChannel, type TestMessage } from '../test-channel.ts';

/** A connector's test sign-in: the popup, the channel its result comes back on, and the result's id. */
export function useSsoTest(configUuid: string, onResult: () => void) {
  const [testId, setTestId] = useState<string | null>(null);
  const [testError, setTestError] = useState<unknown>(null);
  const [testing, setTesting] = useState(false);
  const channel = useRef<BroadcastChannel | null>(null);
  const refresh = useSsoRefresh();
  useEffect(() => () => channel.current?.close(), []);

  /** Opens the IdP in a window; its result comes back over the test channel (spec §4). */
  const test = async () => {
    setTestError(null);
    setTestId(null);
    // Opened now, in the click, so no popup blocker stops it; sent to the IdP once the request is made.
    const win = window.open('about:blank', 'latchkey-sso-test', 'width=600,height=500');
    setTesting(true);
    try {
      const started = await startSsoTest(configUuid);
      channel.current?.close();
      const ch = openTestChannel();
      channel.current = ch;
      ch.onmessage = (event: MessageEvent<TestMessage>) => {
        const message = event.data;
        if (message?.type !== 'sso_test_result' || message.saml_request_id !== started.saml_request_id) return;
        ch.postMessage({ type: 'sso_test_ack', saml_request_id: message.saml_request_id } satisfies TestMessage);
        setTestId(message.saml_request_id);
        setTesting(false);
        onResult();
        void refresh();
      };
      if (win) win.location.href = started.redirect_url;
      else window.open(started.redirect_url, 'latchkey-sso-test', 'width=600,height=500');
    } catch (error) {
      win?.close();
      setTesting(false);
      setTestError(error);
    }
  };

  return { test, testId, testError, testing };
}
