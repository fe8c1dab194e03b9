import { describe, expect, it } from 'vitest';
import type { Trip, TripSummary } from './api';
import { initialTripView, tripViewReducer, type TripViewAction } from './tripViewState';

const trip = { _id: 't1', name: 'Norway', destinations: [] } as unknown as Trip;
const summary = { _id: 't1', name: 'Norway', destinations: [] } as unknown as TripSummary;
const run = (actions: TripViewAction[], from = initialTripView('t1', null)) =>
  actions.reduce(tripViewReducer, from);

describe('the trip screen', () => {
  it('shows at once what was handed over for this trip, else loads', () => {
    expect(initialTripView('t1', { trip }).load).toEqual({ status: 'ready', trip, complete: true });
    expect(initialTripView('t1', { summary }).load).toEqual({
      status: 'ready',
      trip: summary,
      complete: false,
    });
    expect(initialTripView('t2', { trip }).load).toEqual({ status: 'loading' });
    expect(initialTripView('t1', null).load).toEqual({ status: 'loading' });
  });

  it('keeps the shown trip while it is read again, and forgets the chosen destination', () => {
    const shown = run([
      { type: 'loaded', trip },
      { type: 'choose', id: 'd1' },
    ]);
    expect(shown.chosenId).toBe('d1');
    const again = run([{ type: 'load-start', id: 't1' }], shown);
    expect(again.load).toBe(shown.load);
    expect(again.chosenId).toBeNull();
    expect(run([{ type: 'load-start', id: 't2' }], shown).load).toEqual({ status: 'loading' });
  });

  it('says not found or the failure, and Try again reads it again', () => {
    expect(run([{ type: 'load-failed', notFound: true, message: 'x' }]).load).toEqual({
      status: 'not-found',
    });
    const failed = run([{ type: 'load-failed', notFound: false, message: 'Down.' }]);
    expect(failed.load).toEqual({ status: 'failed', message: 'Down.' });
    expect(run([{ type: 'retry' }], failed).attempt).toBe(1);
  });

  it('deletes after the question; a failure keeps it open and says why', () => {
    const asking = run([{ type: 'delete-ask' }]);
    expect(asking).toMatchObject({ confirming: true, deleteError: null });
    const failed = run(
      [{ type: 'delete-start' }, { type: 'delete-failed', message: 'No.' }],
      asking,
    );
    expect(failed).toMatchObject({ confirming: true, deleting: false, deleteError: 'No.' });
    expect(run([{ type: 'delete-ask' }], failed).deleteError).toBeNull();
    expect(run([{ type: 'delete-cancel' }], failed).confirming).toBe(false);
    expect(run([{ type: 'share', open: true }]).sharing).toBe(true);
  });
});
