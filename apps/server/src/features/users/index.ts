// The users feature's public entry: the user rows and security events other features share.

export { anyUserHasEmail } from './user-emails.ts';
export { type UserRow, usersRepository } from './users.repository.ts';
