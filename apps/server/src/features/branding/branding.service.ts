import { LOGO_MAX_BYTES, LOGO_MAX_PX, LOGO_MIN_PX, type LogoType, type TeamLogo } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { recordMemberEvents } from '../members/index.ts';
import { type LogoMeta, brandingRepository as repo } from './branding.repository.ts';
import { inspectImage } from './image-check.ts';

export const LOGO_FILE_PATH = '/organization/account/logo/file/';

const toLogo = (m: LogoMeta): TeamLogo => ({
  url: `${LOGO_FILE_PATH}${m.id}`,
  content_type: m.content_type,
  size: Number(m.size),
  width: m.width,
  height: m.height,
  updated_at: new Date(m.updated_at).toISOString(),
});

const invalidImage = (description: string) => new AppError('invalid_image', description, 400);

/** The uploaded bytes must be the declared image type, within the size and dimension limits. */
function checkLogo(declared: LogoType, base64: string) {
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (bytes.length === 0) throw invalidImage('The file is empty.').shows('errors.image_empty');
  if (bytes.length > LOGO_MAX_BYTES)
    throw invalidImage(`The image can be at most ${LOGO_MAX_BYTES / 1024} KB.`).shows('errors.image_too_big', {
      kb: LOGO_MAX_BYTES / 1024,
    });
  const info = inspectImage(bytes);
  if (!info) throw invalidImage('The file is not a PNG, JPEG or WebP image.').shows('errors.image_type');
  if (info.type !== declared)
    throw invalidImage(`The file is ${info.type}, not ${declared}.`).shows('errors.image_type_mismatch', {
      actual: info.type,
      declared,
    });
  const { width, height } = info;
  if (width < LOGO_MIN_PX || height < LOGO_MIN_PX || width > LOGO_MAX_PX || height > LOGO_MAX_PX) {
    throw invalidImage(`The image must be ${LOGO_MIN_PX}–${LOGO_MAX_PX} pixels a side (it is ${width}×${height}).`).shows(
      'errors.image_dimensions',
      { min: LOGO_MIN_PX, max: LOGO_MAX_PX, width, height },
    );
  }
  return { type: info.type, bytes, width, height };
}

export function createBrandingService(db: Db) {
  const saveLogo = async (caller: Caller, type: LogoType, data: string, mustExist: boolean) => {
    const image = checkLogo(type, data);
    return db.transaction(async (tx) => {
      if (mustExist && !(await repo.meta(tx, caller.team.id))) {
        throw new AppError('not_found', 'There is no logo to update; upload one first.', 404).shows('errors.no_logo');
      }
      await repo.save(tx, caller.team.id, image);
      await recordMemberEvents(tx, caller.team.id, caller.userId, 'logo_updated', [caller.email], {
        content_type: type,
        size: image.bytes.length,
      });
      const meta = await repo.meta(tx, caller.team.id);
      if (!meta) throw new Error('logo vanished inside its own transaction');
      return { logo: toLogo(meta) };
    });
  };

  return {
    async current(caller: Caller) {
      const meta = await repo.meta(db, caller.team.id);
      return { logo: meta ? toLogo(meta) : null };
    },
    upload: (caller: Caller, type: LogoType, data: string) => saveLogo(caller, type, data, false),
    update: (caller: Caller, type: LogoType, data: string) => saveLogo(caller, type, data, true),
    async remove(caller: Caller) {
      await db.transaction(async (tx) => {
        if (!(await repo.remove(tx, caller.team.id)))
          throw new AppError('not_found', 'There is no logo to remove.', 404).shows('errors.no_logo');
        await recordMemberEvents(tx, caller.team.id, caller.userId, 'logo_removed', [caller.email]);
      });
      return { code: 'updated' as const };
    },
    file: (id: string) => repo.file(db, id),
  };
}
