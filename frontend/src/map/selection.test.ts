import { describe, expect, it } from 'vitest';
import {
  NO_SELECTION,
  canSelect,
  closeSelection,
  focusView,
  gesturesEnabled,
  reconcileSelection,
  selectMarker,
} from './selection';
import type { MapMarker, MapView } from './types';

const paris: MapMarker = { kind: 'own', id: 'p', name: 'Paris', lat: 48.85, lng: 2.35, photos: [] };
const rome: MapMarker = { kind: 'bucket', id: 'r', place: 'Rome', lat: 41.9, lng: 12.5 };
const before: MapView = { center: { lat: 10, lng: 20 }, zoom: 3.2 };

describe('marker selection', () => {
  it('starts with nothing selected and gestures enabled', () => {
    expect(NO_SELECTION.state).toEqual([null, true]);
    expect(canSelect(NO_SELECTION)).toBe(true);
    expect(gesturesEnabled(NO_SELECTION)).toBe(true);
  });

  it('selecting a pin pans to it at zoom 6, remembers the view and disables gestures', () => {
    const { selection, moveTo } = selectMarker(NO_SELECTION, paris, before);
    expect(selection.state).toEqual([paris, false]);
    expect(selection.previousView).toEqual(before);
    expect(moveTo).toEqual({ center: { lat: 48.85, lng: 2.35 }, zoom: 6 });
    expect(gesturesEnabled(selection)).toBe(false);
    expect(canSelect(selection)).toBe(false);
  });

  it('refuses a second pin while one is selected', () => {
    const first = selectMarker(NO_SELECTION, paris, before).selection;
    const second = selectMarker(first, rome, { center: { lat: 0, lng: 0 }, zoom: 6 });
    expect(second.selection).toBe(first);
    expect(second.moveTo).toBeNull();
  });

  it('closing restores the previous centre and zoom and re-enables gestures', () => {
    const open = selectMarker(NO_SELECTION, paris, before).selection;
    const { selection, moveTo } = closeSelection(open);
    expect(selection).toEqual(NO_SELECTION);
    expect(moveTo).toEqual(before);
    expect(canSelect(selection)).toBe(true);
    // after closing, another pin can be selected
    expect(selectMarker(selection, rome, before).selection.state[0]).toBe(rome);
  });

  it('closing with nothing selected does nothing', () => {
    expect(closeSelection(NO_SELECTION)).toEqual({ selection: NO_SELECTION, moveTo: null });
  });

  it('reconciles with new markers: keeps a marker still there, drops one that left', () => {
    const open = selectMarker(NO_SELECTION, paris, before).selection;
    const parisAgain = { ...paris, photos: ['a.jpg'] };
    expect(reconcileSelection(open, [parisAgain, rome]).state[0]).toBe(parisAgain);
    expect(reconcileSelection(open, [rome])).toEqual(NO_SELECTION);
    expect(reconcileSelection(NO_SELECTION, [rome])).toBe(NO_SELECTION);
  });

  it('focusing a marker from a list zooms to it at zoom 6', () => {
    expect(focusView(rome)).toEqual({ center: { lat: 41.9, lng: 12.5 }, zoom: 6 });
  });
});
