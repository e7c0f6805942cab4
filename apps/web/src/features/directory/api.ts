import type { ApiMap, DirectoryRun, EndpointInput } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

const directoryKeys = { settings: (team: string) => ['directory', team, 'settings'] as const };

export type SettingsForm = Omit<EndpointInput<ApiMap['directorySave']>, 'team_slug'>;

/** The connection and its runs; always fresh on opening (scheduled runs happen without the console). */
export const useDirectoryQuery = (enabled: boolean) => {
  const team = useTeamSlug();
  return useQuery({
    queryKey: directoryKeys.settings(team),
    queryFn: () => call('directorySettings', { team_slug: team }),
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
  });
};

export const useDirectoryTest = () => {
  const team = useTeamSlug();
  return useMutation({ mutationFn: (form: SettingsForm) => call('directoryTest', { ...form, team_slug: team }) });
};

/** Save, disconnect, preview, apply and sync now: each ends with the settings and runs read again. */
export function useDirectoryAction() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: async (
      action:
        | { kind: 'save'; form: SettingsForm }
        | { kind: 'delete' }
        | { kind: 'preview' }
        | { kind: 'apply'; runId: string }
        | { kind: 'sync' },
    ): Promise<DirectoryRun | null> => {
      if (action.kind === 'save') {
        await call('directorySave', { ...action.form, team_slug: team });
        return null;
      }
      if (action.kind === 'delete') {
        await call('directoryDelete', { team_slug: team });
        return null;
      }
      if (action.kind === 'preview') return (await call('directoryPreview', { team_slug: team })).run;
      if (action.kind === 'apply') return (await call('directoryApply', { team_slug: team, run_id: action.runId })).run;
      return (await call('directorySyncNow', { team_slug: team })).run;
    },
    onSettled: () => client.invalidateQueries({ queryKey: directoryKeys.settings(team) }),
  });
}
