import { IDP_PRESETS, type SsoConfig } from '@latchkey/contracts/client';
import { Accordion, List, Text } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';

/**
 * The setup steps for the connector's identity provider (its preset): where to paste our entity ID
 * and ACS URL, which NameID and attribute names to send, and which signature the connector expects.
 */
export function SetupSteps({ type }: { type: SsoConfig['idp_type'] }) {
  const { t } = useTranslation();
  const preset = IDP_PRESETS[type];
  const steps = Array.from({ length: preset.steps }, (_, i) => t(`sso.preset.${type}.step${i + 1}`));
  return (
    <Accordion variant="contained" data-testid="sso-setup">
      <Accordion.Item value="steps">
        <Accordion.Control>{t('sso.setup_title', { idp: t(`sso.idp.${type}`) })}</Accordion.Control>
        <Accordion.Panel>
          <List type="ordered" spacing="xs" size="sm" data-testid="sso-setup-steps">
            {steps.map((step) => (
              <List.Item key={step}>{step}</List.Item>
            ))}
          </List>
          <Text size="xs" c="dimmed" mt="sm" data-testid="sso-setup-signature">
            {t('sso.setup_signature', { mode: t(`sso.sign_mode.${preset.signMode}`) })}
          </Text>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
