/**
 * Real coordinates with the country they are in (or null: open sea), for the lookup's tests.
 * Coordinates are the places' usual ones (city centres as GeoNames / Wikipedia give them; sea
 * points read off a chart, with the distance to the nearest coast noted).
 */
export interface Place {
  name: string;
  latitude: number;
  longitude: number;
  expected: string | null;
  kind: 'capital' | 'border town' | 'island' | 'near a coast' | 'open sea' | 'edge of the map';
}

const place =
  (kind: Place['kind']) =>
  (name: string, latitude: number, longitude: number, expected: string | null): Place => ({
    name,
    latitude,
    longitude,
    expected,
    kind,
  });
const capital = place('capital');
const border = place('border town');
const island = place('island');
const coast = place('near a coast');
const sea = place('open sea');
const edge = place('edge of the map');

export const PLACES: readonly Place[] = [
  capital('Paris', 48.8566, 2.3522, 'FR'),
  capital('Berlin', 52.52, 13.405, 'DE'),
  capital('Madrid', 40.4168, -3.7038, 'ES'),
  capital('Rome', 41.9028, 12.4964, 'IT'),
  capital('Vatican City (St Peter’s Square)', 41.9022, 12.4572, 'VA'),
  capital('London', 51.5074, -0.1278, 'GB'),
  capital('Dublin', 53.3498, -6.2603, 'IE'),
  capital('Lisbon', 38.7223, -9.1393, 'PT'),
  capital('Warsaw', 52.2297, 21.0122, 'PL'),
  capital('Kyiv', 50.4501, 30.5234, 'UA'),
  capital('Moscow', 55.7558, 37.6173, 'RU'),
  capital('Ankara', 39.9334, 32.8597, 'TR'),
  capital('Pristina', 42.6629, 21.1655, 'XK'),
  capital('Monaco', 43.7384, 7.4246, 'MC'),
  capital('San Marino', 43.9356, 12.4473, 'SM'),
  capital('Andorra la Vella', 42.5063, 1.5218, 'AD'),
  capital('Luxembourg', 49.6116, 6.1319, 'LU'),
  capital('Vaduz', 47.141, 9.5209, 'LI'),
  capital('Cairo', 30.0444, 31.2357, 'EG'),
  capital('Nairobi', -1.2921, 36.8219, 'KE'),
  capital('Addis Ababa', 9.03, 38.74, 'ET'),
  capital('Pretoria', -25.7479, 28.2293, 'ZA'),
  capital('Dakar', 14.7167, -17.4677, 'SN'),
  capital('Kinshasa', -4.4419, 15.2663, 'CD'),
  capital('Brazzaville', -4.2634, 15.2429, 'CG'),
  capital('Hargeisa (Somaliland)', 9.56, 44.065, 'SO'),
  capital('Tehran', 35.6892, 51.389, 'IR'),
  capital('New Delhi', 28.6139, 77.209, 'IN'),
  capital('Kathmandu', 27.7172, 85.324, 'NP'),
  capital('Beijing', 39.9042, 116.4074, 'CN'),
  capital('Ulaanbaatar', 47.8864, 106.9057, 'MN'),
  capital('Tokyo', 35.6762, 139.6503, 'JP'),
  capital('Bangkok', 13.7563, 100.5018, 'TH'),
  capital('Singapore', 1.3521, 103.8198, 'SG'),
  capital('Jakarta', -6.2088, 106.8456, 'ID'),
  capital('Canberra', -35.2809, 149.13, 'AU'),
  capital('Wellington', -41.2865, 174.7762, 'NZ'),
  capital('Ottawa', 45.4215, -75.6972, 'CA'),
  capital('Washington', 38.9072, -77.0369, 'US'),
  capital('Mexico City', 19.4326, -99.1332, 'MX'),
  capital('Bogotá', 4.711, -74.0721, 'CO'),
  capital('Lima', -12.0464, -77.0428, 'PE'),
  capital('Brasília', -15.7939, -47.8828, 'BR'),
  capital('Buenos Aires', -34.6037, -58.3816, 'AR'),
  capital('Santiago', -33.4489, -70.6693, 'CL'),
  border('Basel', 47.5596, 7.5886, 'CH'),
  border('Saint-Louis (by Basel)', 47.5903, 7.5601, 'FR'),
  border('Strasbourg', 48.5734, 7.7521, 'FR'),
  border('Kehl', 48.5725, 7.815, 'DE'),
  border('Geneva', 46.2044, 6.1432, 'CH'),
  border('Annemasse (by Geneva)', 46.1934, 6.2342, 'FR'),
  border('Gibraltar', 36.1408, -5.3536, 'GI'),
  border('La Línea de la Concepción', 36.1681, -5.3478, 'ES'),
  border('Tijuana', 32.5149, -117.0382, 'MX'),
  border('San Diego', 32.7157, -117.1611, 'US'),
  border('Ciudad Juárez', 31.6904, -106.4245, 'MX'),
  border('El Paso', 31.7619, -106.485, 'US'),
  border('Zgorzelec', 51.1494, 15.0083, 'PL'),
  border('Sevastopol (Crimea)', 44.6166, 33.5254, 'UA'),
  border('Kyrenia (north of Cyprus)', 35.3417, 33.3167, 'CY'),
  island('Valletta, Malta', 35.8989, 14.5146, 'MT'),
  island('Port Louis, Mauritius', -20.1609, 57.5012, 'MU'),
  island('Reykjavík', 64.1466, -21.9426, 'IS'),
  island('Honolulu', 21.3069, -157.8583, 'US'),
  island('Papeete, Tahiti', -17.5516, -149.5585, 'PF'),
  island('Denpasar, Bali', -8.6705, 115.2126, 'ID'),
  island('Stone Town, Zanzibar', -6.1659, 39.2026, 'TZ'),
  island('Saint-Denis, Réunion', -20.8823, 55.4504, 'RE'),
  island('Funafuti, Tuvalu', -8.5211, 179.1983, 'TV'),
  island('Suva, Fiji', -18.1248, 178.4501, 'FJ'),
  island('Taveuni, Fiji (east of 180°)', -16.85, -179.95, 'FJ'),
  island('Longyearbyen, Svalbard', 78.2232, 15.6267, 'SJ'),
  island('Nuuk, Greenland', 64.1814, -51.6941, 'GL'),
  island('Tórshavn, Faroe Islands', 62.0079, -6.79, 'FO'),
  island('Hamilton, Bermuda', 32.2949, -64.7814, 'BM'),
  island('Nouméa, New Caledonia', -22.2758, 166.458, 'NC'),
  coast('Valletta, Grand Harbour entrance', 35.9005, 14.5245, 'MT'),
  coast('Marseille, off the harbour (2 km out)', 43.3, 5.33, 'FR'),
  coast('Sydney Heads', -33.8333, 151.2917, 'AU'),
  coast('Golden Gate, under the bridge', 37.8199, -122.4783, 'US'),
  coast('Helsinki-Tallinn ferry, 8 km off Tallinn', 59.51, 24.75, 'EE'),
  coast('Helsinki-Tallinn ferry, 8 km off Helsinki', 60.09, 24.93, 'FI'),
  coast('Dover-Calais ferry, 6 km off Dover', 51.07, 1.37, 'GB'),
  coast('Piraeus-Aegina ferry, mid-way (10 km from each)', 37.85, 23.55, 'GR'),
  coast('Victoria Harbour, Hong Kong', 22.2885, 114.1694, 'HK'),
  coast('Off Copacabana (5 km out)', -23.02, -43.16, 'BR'),
  coast('Off Waikiki (5 km out)', 21.23, -157.83, 'US'),
  sea('Mid-Atlantic', 30, -40, null),
  sea('North Sea, between Norway and Scotland', 58, 1, null),
  sea('Central Mediterranean', 35, 18, null),
  sea('Gulf of Mexico', 25, -90, null),
  sea('Indian Ocean', -30, 80, null),
  sea('South Pacific', -20, -120, null),
  sea('Tasman Sea', -38, 160, null),
  sea('Arctic Ocean near the pole', 88, 0, null),
  sea('Pacific on the antimeridian', 0, 180, null),
  edge('South Pole', -90, 0, 'AQ'),
  edge('McMurdo Station', -77.846, 166.676, 'AQ'),
  edge('Uelen, Chukotka (west of 180°)', 66.16, -169.81, 'RU'),
  edge('Anadyr, Chukotka', 64.7337, 177.5089, 'RU'),
];

/**
 * Right in the world, wrong at the data's resolution: printed by the test with what the atlas
 * answers, counted in the hit rate, not required (README, "Hit rate").
 */
export const AMBIGUOUS: ReadonlyArray<Place & { why: string }> = [
  {
    ...border('Görlitz (old town, GeoNames)', 51.15518, 14.98853, 'DE'),
    why:
      'about 700 m west of the Neisse, the German-Polish border; world-atlas quantises 1:10m ' +
      'coordinates to 0.0036° of longitude (about 250 m here) and generalises the river, which ' +
      'puts the old town on the Polish side',
  },
];
