import { Anchor, Badge, Button, Collapse, Group, Stack, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { splitBadges, truncate } from './badges.ts';

function OneBadge({ text, max }: { text: string; max: number }) {
  const short = truncate(text, max);
  const badge = (
    <Badge variant="light" color="gray" tt="none" fw={500} data-testid="badge">
      {short}
    </Badge>
  );
  return short === text ? badge : <Tooltip label={text}>{badge}</Tooltip>;
}

/**
 * Spec §9 badges: five, then `+n more`. With every item at hand the rest open below as a
 * collapsible list; with only the first few (the group list), `+n more` leads to where they all are.
 */
export function Badges({ items, total, max, moreHref }: { items: string[]; total?: number; max: number; moreHref?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { shown, rest, more } = splitBadges(items, total);
  const label = t('groups.badges.more', { n: formatNumber(more) });
  return (
    <Stack gap={6}>
      <Group gap={6} wrap="wrap">
        {shown.map((item) => (
          <OneBadge key={item} text={item} max={max} />
        ))}
        {more > 0 &&
          (moreHref && rest.length === 0 ? (
            <Anchor component={Link} href={moreHref} size="xs" data-testid="badges-more">
              {label}
            </Anchor>
          ) : (
            <Button variant="subtle" size="compact-xs" onClick={() => setOpen((o) => !o)} data-testid="badges-more">
              {open ? t('groups.badges.less') : label}
            </Button>
          ))}
      </Group>
      <Collapse expanded={open}>
        <Group gap={6} wrap="wrap" data-testid="badges-rest">
          {rest.map((item) => (
            <OneBadge key={item} text={item} max={max} />
          ))}
        </Group>
      </Collapse>
    </Stack>
  );
}
