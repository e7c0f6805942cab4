import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';

const CHALLENGE_MINUTES = 5;

interface KeyRow {
  id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string[];
}

/** Security keys and their one-time challenges; access is decided by the callers. */
const securityKeysRepository = {
  async list(q: Queryable, userId: string): Promise<KeyRow[]> {
    return q.query<KeyRow>(
      'select id, credential_id, public_key, counter, transports from security_keys where user_id = $1 order by created_at',
      [userId],
    );
  },
  async count(q: Queryable, userId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from security_keys where user_id = $1', [userId]);
    return row?.n ?? 0;
  },
  async saveChallenge(q: Queryable, userId: string, purpose: 'register' | 'sign_in', challenge: string): Promise<void> {
    await q.query('update webauthn_challenges set used_at = now() where user_id = $1 and purpose = $2 and used_at is null', [
      userId,
      purpose,
    ]);
    await q.query(
      `insert into webauthn_challenges (user_id, purpose, challenge, expires_at) values ($1, $2, $3, now() + $4 * interval '1 minute')`,
      [userId, purpose, challenge, CHALLENGE_MINUTES],
    );
  },
  /** The newest live challenge, spent in the same statement: an answer is checked once. */
  async takeChallenge(q: Queryable, userId: string, purpose: 'register' | 'sign_in'): Promise<string | undefined> {
    const [row] = await q.query<{ challenge: string }>(
      `update webauthn_challenges set used_at = now()
       where id = (select id from webauthn_challenges where user_id = $1 and purpose = $2 and used_at is null and expires_at > now()
                   order by expires_at desc limit 1)
       returning challenge`,
      [userId, purpose],
    );
    return row?.challenge;
  },
  async add(
    q: Queryable,
    userId: string,
    key: { id: string; publicKey: string; counter: number; transports: string[]; name: string },
  ) {
    await q.query(
      'insert into security_keys (user_id, credential_id, public_key, counter, transports, name) values ($1, $2, $3, $4, $5, $6)',
      [userId, key.id, key.publicKey, key.counter, key.transports, key.name],
    );
  },
  /** What the account security screen shows of each key: never the key material. */
  async describe(q: Queryable, userId: string) {
    return q.query<{ id: string; name: string; created_at: Date; last_used_at: Date | null }>(
      'select id, name, created_at, last_used_at from security_keys where user_id = $1 order by created_at, id',
      [userId],
    );
  },
  /** Renames one of the admin's own keys; false when no such key is theirs. */
  async rename(q: Queryable, userId: string, id: string, name: string): Promise<boolean> {
    const rows = await q.query('update security_keys set name = $3 where id = $2 and user_id = $1 returning 1', [
      userId,
      id,
      name,
    ]);
    return rows.length === 1;
  },
  /** Removes one of the admin's own keys; false when no such key is theirs. */
  async remove(q: Queryable, userId: string, id: string): Promise<boolean> {
    const rows = await q.query('delete from security_keys where id = $2 and user_id = $1 returning 1', [userId, id]);
    return rows.length === 1;
  },
  async used(q: Queryable, id: string, counter: number): Promise<void> {
    await q.query('update security_keys set counter = $2, last_used_at = now() where id = $1', [id, counter]);
  },
};

/** Where WebAuthn is bound: the console's origin and its host name (the relying party). */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** Security keys (WebAuthn, @simplewebauthn/server): registration and the sign-in check. */
export function createSecurityKeys(db: Db) {
  const repo = securityKeysRepository;
  return {
    count: (userId: string) => repo.count(db, userId),
    describe: (userId: string) => repo.describe(db, userId),
    rename: (userId: string, id: string, name: string) => repo.rename(db, userId, id, name),
    remove: (userId: string, id: string) => repo.remove(db, userId, id),

    async registrationOptions(user: { id: string; email: string; name: string }, rp: RelyingParty) {
      const existing = await repo.list(db, user.id);
      const options = await generateRegistrationOptions({
        rpName: 'Latchkey admin console',
        rpID: rp.rpID,
        userName: user.email,
        userDisplayName: user.name || user.email,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((k) => ({ id: k.credential_id, transports: k.transports })),
        authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
      });
      await repo.saveChallenge(db, user.id, 'register', options.challenge);
      return options as unknown as Record<string, unknown>;
    },

    async register(userId: string, response: Record<string, unknown>, name: string, rp: RelyingParty): Promise<void> {
      const challenge = await repo.takeChallenge(db, userId, 'register');
      if (!challenge) throw new AppError('invalid_input', 'Start adding the security key again.');
      const result = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const }));
      if (!result.verified) throw new AppError('invalid_input', 'The security key could not be verified.');
      const { credential } = result.registrationInfo;
      await repo.add(db, userId, {
        id: credential.id,
        publicKey: b64(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
      });
    },

    async signInOptions(userId: string, rp: RelyingParty) {
      const keys = await repo.list(db, userId);
      const options = await generateAuthenticationOptions({
        rpID: rp.rpID,
        allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports as never })),
        userVerification: 'preferred',
      });
      await repo.saveChallenge(db, userId, 'sign_in', options.challenge);
      return options as unknown as Record<string, unknown>;
    },

    /** True when the answer is from one of the admin's keys, to the live challenge, not a cloned key. */
    async check(userId: string, response: Record<string, unknown>, rp: RelyingParty): Promise<boolean> {
      const challenge = await repo.takeChallenge(db, userId, 'sign_in');
      const key = (await repo.list(db, userId)).find((k) => k.credential_id === response.id);
      if (!challenge || !key) return false;
      const result = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: key.credential_id,
          publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')),
          counter: Number(key.counter),
          transports: key.transports as never,
        },
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
      if (!result.verified || !result.authenticationInfo) return false;
      await repo.used(db, key.id, result.authenticationInfo.newCounter);
      return true;
    },
  };
}
export type SecurityKeys = ReturnType<typeof createSecurityKeys>;
