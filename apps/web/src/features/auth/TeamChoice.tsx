import { Radio, Stack } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';

/** The team selector shown when an email administers several teams (spec §2 /login). */
export function TeamChoice({
  teams,
  value,
  onChange,
}: {
  teams: { team_slug: string; team_name: string }[];
  value: string;
  onChange: (slug: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group label={t('loginpage.choose_team')} value={value} onChange={onChange} withAsterisk>
      <Stack gap="xs" mt="xs">
        {teams.map((team) => (
          <Radio key={team.team_slug} value={team.team_slug} label={team.team_name} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
