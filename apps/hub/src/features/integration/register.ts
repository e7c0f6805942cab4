import type { EndpointInput, hubRegisterEndpoint } from '@latchkey/contracts';
import { AppError, acceptSignedCall, bearerOf, type Db, JWS_TYP, jwsKid, publicKeyOf, unauthorized } from '@latchkey/runtime';
import { redeemSetupKey, registrationsRepository as repo } from '../registrations/index.ts';

type Input = EndpointInput<typeof hubRegisterEndpoint>;

const unsigned = () => unauthorized('The registration is not signed by the server it names.');

/**
 * Registers a team's credential, called by the team's server (never a browser). Who may:
 * - a team new to this Hub: whoever brings the operator's setup key for exactly that team, and
 *   proves it holds the private half of the key it registers (the call is signed with it);
 * - a team already here: only a call that verifies against a server key already registered for
 *   that team. A setup key alone is refused, so one team's key never adds a second server to
 *   another team (the cross-tenant attack).
 */
export async function registerCredential(
  db: Db,
  setupSecret: string,
  path: string,
  input: Input,
  authorization: string | undefined,
  body: unknown,
): Promise<void> {
  const token = bearerOf(authorization);
  if (!token || jwsKid(token, JWS_TYP.call) !== input.credential_id) throw unsigned();
  const offered = publicKeyOf(input.server_key);
  if (!offered) throw unsigned();
  const expected = { path, teamSlug: input.team_slug, body };

  await db.transaction(async (tx) => {
    // One registration decision per team at a time: two first registrations cannot both win.
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`registration:${input.team_slug}`]);
    const trusted = (await repo.listForTeam(tx, input.team_slug)).flatMap((r) => {
      const key = publicKeyOf(r.server_key);
      return key ? [key] : [];
    });
    if (trusted.length > 0) {
      let vouched = false;
      for (const key of trusted) {
        if (await acceptSignedCall(tx, token, key, expected)) {
          vouched = true;
          break;
        }
      }
      if (!vouched)
        throw new AppError(
          'not_allowed',
          'This team is already registered on this Hub: only its registered server can add a credential.',
        ).shows('errors.hub_team_needs_proof');
    } else {
      if (!(await acceptSignedCall(tx, token, offered, expected))) throw unsigned();
      if (!input.setup_key)
        throw new AppError('setup_key_invalid', 'A setup key from the Hub operator is required.').shows(
          'errors.setup_key_invalid',
        );
      await redeemSetupKey(tx, setupSecret, input.setup_key, input.team_slug);
    }
    const saved = await repo.upsert(tx, {
      team_slug: input.team_slug,
      credential_id: input.credential_id,
      server_key: input.server_key,
      server_url: input.server_url,
    });
    if (!saved)
      throw new AppError('not_allowed', 'That credential is registered here for another team.').shows(
        'errors.credential_other_team',
      );
  });
}
