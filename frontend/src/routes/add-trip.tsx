import { useMemo, useReducer } from 'react';
import { useNavigate } from 'react-router-dom';
import { failureMessage, TRIP_TEXTS, uploadTrip } from '../trips/api';
import { TripForm } from '../trips/components/TripForm';
import { buildTripFormData, localDateString } from '../trips/tripForm';
import { initialTripForm, tripFormReducer } from '../trips/tripFormState';
import { useTripSend, type SendOptions } from '../trips/useTripSend';
import '../styles/auth.css';
import '../styles/trips.css';

const saveFailure = (error: unknown) => failureMessage(error, TRIP_TEXTS.saveFailed);

/**
 * The add-trip screen (`/addTrip`): a name, a date range (today by
 * default), destinations added one by one from the place autocomplete (with dates, a story and
 * photos), then Save posts the multipart form, shows 'Uploading...' and opens the new trip.
 * The form and its rules: `trips/components/TripForm`, `trips/tripFormState`.
 */
export function Component() {
  const navigate = useNavigate();
  const today = useMemo(() => localDateString(), []);
  const [state, dispatch] = useReducer(tripFormReducer<File>, undefined, () =>
    initialTripForm<File>({ startDate: today, endDate: today }),
  );

  // the send of the render whose Save let it through: `state` is the form as saved
  const send = async ({ signal, onProgress }: SendOptions) => {
    const body = buildTripFormData({
      name: state.name,
      startDate: state.range.startDate,
      endDate: state.range.endDate,
      visibility: state.visibility,
      destinations: state.destinations,
    });
    const trip = await uploadTrip(body, { signal, onProgress });
    navigate(`/trip/${trip._id}`, { state: { trip } });
  };
  useTripSend(state.sending?.run ?? null, dispatch, send, saveFailure);

  return (
    <section className="page add-trip-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Add Trip</h1>
        <p className="page-subtitle">Name your trip, then add its destinations one by one.</p>
      </header>
      <TripForm
        state={state}
        dispatch={dispatch}
        today={today}
        submitLabel="Save trip"
        cancelTo="/trips"
      />
    </section>
  );
}
