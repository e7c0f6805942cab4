/** An approved request whose recovery link still works: deleting it needs force_delete. */
export const linkIsLive = (r: { state: string; link_expires_at: string | null }, now = Date.now()): boolean =>
  r.state === 'approved' && r.link_expires_at !== null && Date.parse(r.link_expires_at) > now;
