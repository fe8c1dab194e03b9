import { toPlaceChoice, type PlaceSuggestion } from '../places';
import type { PlaceSource } from '../placeSource';

/**
 * Place search through Google Places Autocomplete (the places library the provider loads).
 * Uses the current `AutocompleteSuggestion` API, falling back to `AutocompleteService` where
 * the loaded version lacks it. Details (the location) are fetched only for the chosen row.
 */
export function createGooglePlaceSource(): PlaceSource {
  const places = google.maps.places;
  let token = new places.AutocompleteSessionToken();
  const predictions = new Map<string, google.maps.places.PlacePrediction>();

  return {
    async search(query, signal) {
      predictions.clear();
      if ('AutocompleteSuggestion' in places && places.AutocompleteSuggestion) {
        const { suggestions } = await places.AutocompleteSuggestion.fetchAutocompleteSuggestions({
          input: query,
          sessionToken: token,
        });
        if (signal.aborted) return [];
        return suggestions.flatMap((s): PlaceSuggestion[] => {
          const p = s.placePrediction;
          if (!p) return [];
          predictions.set(p.placeId, p);
          return [
            {
              id: p.placeId,
              name: p.mainText?.text ?? p.text.text,
              label: p.text.text,
              detail: p.secondaryText?.text,
            },
          ];
        });
      }
      const service = new places.AutocompleteService();
      const result = await service.getPlacePredictions({ input: query, sessionToken: token });
      return result.predictions.map((p) => ({
        id: p.place_id,
        name: p.structured_formatting.main_text,
        label: p.description,
        detail: p.structured_formatting.secondary_text,
      }));
    },

    async resolve(suggestion) {
      const prediction = predictions.get(suggestion.id);
      let latitude: number | undefined;
      let longitude: number | undefined;
      if (prediction) {
        const place = prediction.toPlace();
        await place.fetchFields({ fields: ['location', 'displayName', 'formattedAddress'] });
        latitude = place.location?.lat();
        longitude = place.location?.lng();
      } else {
        const service = new places.PlacesService(document.createElement('div'));
        const place = await new Promise<google.maps.places.PlaceResult | null>((resolve) =>
          service.getDetails(
            { placeId: suggestion.id, fields: ['geometry', 'name'], sessionToken: token },
            (result) => resolve(result),
          ),
        );
        latitude = place?.geometry?.location?.lat();
        longitude = place?.geometry?.location?.lng();
      }
      token = new places.AutocompleteSessionToken();
      return toPlaceChoice({ name: suggestion.name, label: suggestion.label, latitude, longitude });
    },
  };
}
