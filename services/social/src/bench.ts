// @wayfarer/social/bench: what the benches use besides the public entry, and nothing else
// should. They fill the read models in SQL as the trips consumer writes them, and time the
// figures' computation alone.

/** A friend's trip as the trips consumer stores it (the doc and the list's summary). */
export { friendTrip } from './domain/trips';
/** Each destination's country, as the trips consumer stores it; the figures of stored rows. */
export { destinationCountries, statsOf } from './domain/stats';
