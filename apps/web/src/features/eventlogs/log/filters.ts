/** yyyy-mm-dd of a date input → epoch seconds at the start (or end) of that day, in the admin's time zone. */
export const dayToEpoch = (day: string, end: boolean): number | null => {
  if (!day) return null;
  const d = new Date(`${day}T${end ? '23:59:59' : '00:00:00'}`);
  return Number.isNaN(d.getTime()) ? null : Math.floor(d.getTime() / 1000);
};

/** The filters picked from the lists the Hub offers. */
export interface PickedFilters {
  activities: string[];
  actors: string[];
  components: string[];
  ips: string[];
}

export const NO_PICKS: PickedFilters = { activities: [], actors: [], components: [], ips: [] };
