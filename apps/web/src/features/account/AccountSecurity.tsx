import { SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useSecuritySummaryQuery } from './api.ts';
import { SecurityKeysCard } from './SecurityKeysCard.tsx';
import { AuthenticatorCard } from './sections/AuthenticatorCard.tsx';
import { ChangePasswordCard, FirstPasswordCard } from './sections/PasswordCards.tsx';
import { SignInMethodCard } from './sections/SignInMethodCard.tsx';

/** spec §2 /settings/account-security: sign-in method, password, authenticator and backup codes. */
export function AccountSecurity() {
  const summary = useSecuritySummaryQuery();
  if (summary.isError) return <DataFetchError onRetry={() => void summary.refetch()} />;
  if (!summary.data)
    return (
      <Stack aria-busy="true">
        <Skeleton h={160} />
        <Skeleton h={220} />
      </Stack>
    );
  const data = summary.data;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <AuthenticatorCard
        totpEnabled={data.totp_enabled}
        codesLeft={data.recovery_codes_left}
        canEnable={data.auth_type === 'password' && data.has_password}
      />
      <SecurityKeysCard canAdd={data.auth_type === 'password' && data.has_password} hasPassword={data.has_password} />
      {data.has_password ? <ChangePasswordCard /> : <FirstPasswordCard />}
      <SignInMethodCard current={data.auth_type} totpEnabled={data.totp_enabled} hasPassword={data.has_password} />
    </SimpleGrid>
  );
}
