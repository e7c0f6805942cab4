import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { Footer } from '../../components/Footer.tsx';
import { Logo } from '../../components/Logo.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/**
 * The frame of every sign-in step; a signed-in visitor is sent to '/', except on a sign-in link
 * (`keepSession`), which replaces the session it finds.
 */
export function LoginLayout({ children, keepSession = false }: { children: ReactNode; keepSession?: boolean }) {
  const session = useSession();
  const { t } = useTranslation();
  useDocumentTitle(t('loginpage.sign_in'));
  if (session && !keepSession) return <Redirect to="/" replace />;
  return (
    <Box mih="100dvh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
      <Center style={{ flex: 1 }} p="md">
        <Stack w="100%" maw={420} gap="lg">
          <Stack gap={4} align="center">
            <Logo size={40} />
            <Text c="dimmed" size="sm">
              {t('app.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
            {children}
          </Paper>
        </Stack>
      </Center>
      <Footer />
    </Box>
  );
}
