import type { LogoType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface LogoMeta {
  id: string;
  content_type: LogoType;
  size: number;
  width: number;
  height: number;
  updated_at: Date;
}

export const brandingRepository = {
  async meta(q: Queryable, teamId: string): Promise<LogoMeta | undefined> {
    const [row] = await q.query<LogoMeta>(
      `select id, content_type, octet_length(bytes) as size, width, height, updated_at from team_logos where team_id = $1`,
      [teamId],
    );
    return row;
  },

  async file(q: Queryable, id: string) {
    const [row] = await q.query<{ content_type: LogoType; bytes: Uint8Array }>(
      'select content_type, bytes from team_logos where id = $1',
      [id],
    );
    return row;
  },

  /** Stores the image under a new id (a new URL), replacing any previous one. */
  async save(q: Queryable, teamId: string, image: { type: LogoType; bytes: Uint8Array; width: number; height: number }) {
    await q.query(
      `insert into team_logos (team_id, content_type, bytes, width, height) values ($1, $2, $3, $4, $5)
       on conflict (team_id) do update set id = gen_random_uuid(), content_type = excluded.content_type,
         bytes = excluded.bytes, width = excluded.width, height = excluded.height, updated_at = now()`,
      [teamId, image.type, image.bytes, image.width, image.height],
    );
  },

  async remove(q: Queryable, teamId: string): Promise<boolean> {
    return (await q.query('delete from team_logos where team_id = $1 returning id', [teamId])).length > 0;
  },
};
