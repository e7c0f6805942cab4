import { Button, FileButton, Group, Paper, Text } from '@mantine/core';
import { type DragEvent, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.ts';
import { readMetadataFile } from './metadata-file.ts';

/**
 * The identity provider's metadata file, dropped here or picked with the button (the keyboard way).
 * Read in the browser and handed over as text; a file that is not .xml or too large is refused here.
 */
export function MetadataDrop({ onXml, busy }: { onXml: (xml: string) => void; busy: boolean }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const take = async (file: File | null | undefined) => {
    if (!file) return;
    const read = await readMetadataFile(file);
    setError(read.ok ? null : read.error);
    if (read.ok) onXml(read.xml);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void take(event.dataTransfer.files[0]);
  };
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      style={{ borderStyle: 'dashed', borderColor: over ? 'var(--mantine-color-blue-6)' : undefined }}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="sso-metadata-drop"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('sso.metadata_drop')}
        </Text>
        <FileButton accept=".xml,application/xml,text/xml,application/samlmetadata+xml" onChange={(f) => void take(f)}>
          {(props) => (
            <Button variant="default" loading={busy} {...props} data-testid="sso-metadata-upload">
              {t('sso.metadata_upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {error && (
        <Text size="sm" c="red" mt="xs" role="alert" data-testid="sso-metadata-file-error">
          {t(error)}
        </Text>
      )}
    </Paper>
  );
}
