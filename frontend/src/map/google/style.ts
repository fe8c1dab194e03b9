/** The Google provider's fixed dark style, matching the keyless basemap's colours. */
export const GOOGLE_DARK_STYLE: google.maps.MapTypeStyle[] = [
  { elementType: 'geometry', stylers: [{ color: '#18213a' }] },
  { elementType: 'labels.text.fill', stylers: [{ color: '#8d98b5' }] },
  { elementType: 'labels.text.stroke', stylers: [{ color: '#0a0f1e' }] },
  {
    featureType: 'administrative',
    elementType: 'geometry.stroke',
    stylers: [{ color: '#34426a' }],
  },
  { featureType: 'administrative.land_parcel', stylers: [{ visibility: 'off' }] },
  { featureType: 'poi', stylers: [{ visibility: 'off' }] },
  { featureType: 'road', elementType: 'geometry', stylers: [{ color: '#222c4a' }] },
  { featureType: 'road', elementType: 'labels', stylers: [{ visibility: 'off' }] },
  { featureType: 'transit', stylers: [{ visibility: 'off' }] },
  { featureType: 'water', elementType: 'geometry', stylers: [{ color: '#060a16' }] },
  { featureType: 'water', elementType: 'labels.text.fill', stylers: [{ color: '#3d4a6e' }] },
];

/** Cluster icons: a filled accent disc with the count, drawn as SVG (no remote images). */
export function clusterIconUrl(size: number): string {
  const r = size / 2;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<circle cx="${r}" cy="${r}" r="${r - 1}" fill="#f6b54a" fill-opacity="0.28"/>` +
    `<circle cx="${r}" cy="${r}" r="${r - 7}" fill="#f6b54a" stroke="#0a0f1e" stroke-width="2"/>` +
    `</svg>`;
  return `data:image/svg+xml;charset=UTF-8,${encodeURIComponent(svg)}`;
}
