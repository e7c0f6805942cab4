import { Skeleton } from '@mantine/core';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatMonth, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useProvisioningQuery } from './api.ts';
import { ProvisioningChart } from './Charts.tsx';
import { DashCard } from './DashCard.tsx';
/** Members onboarded and deboarded per month: a chart, and a table for screen readers. */
export function ProvisioningCard() {
  const { t } = useTranslation();
  const provisioning = useProvisioningQuery();
  const chartSkeleton = <Skeleton h={240} data-testid="provisioning-skeleton" />;
  return (
    <DashCard title={t('dashboard.provisioning')} testId="provisioning-card">
      {provisioning.isError ? (
        <DataFetchError onRetry={() => void provisioning.refetch()} />
      ) : !provisioning.data ? (
        chartSkeleton
      ) : (
        <>
          <div aria-hidden>
            <ProvisioningChart data={provisioning.data} />
          </div>
          {/* Hidden in a block: a table is never narrower than its content, and would widen the card. */}
          <div className="visually-hidden" style={visuallyHidden}>
            <table>
              <caption>{t('dashboard.provisioning')}</caption>
              <tbody>
                {provisioning.data.map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{formatMonth(d.date)}</th>
                    <td>{t('dashboard.onboarded_n', { n: formatNumber(d.onboarded) })}</td>
                    <td>{t('dashboard.deboarded_n', { n: formatNumber(d.deboarded) })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </DashCard>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
