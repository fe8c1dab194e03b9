/**
 * The continent of each country code the atlas answers: the UN's M49 regions (the Americas
 * split at Panama / Colombia: Central America and the Caribbean are North America), with one
 * departure: Cyprus is Europe (an EU member; M49 puts it in Western Asia). So Russia is Europe,
 * Turkey, Georgia, Armenia, Azerbaijan and Kazakhstan are Asia, Egypt is Africa; subantarctic
 * islands go where M49 puts them (French Southern Lands and the British Indian Ocean Territory
 * Africa, Heard Island Oceania, South Georgia South America); only Antarctica (AQ) is Antarctica.
 */
export const CONTINENTS = [
  'Africa',
  'Antarctica',
  'Asia',
  'Europe',
  'North America',
  'Oceania',
  'South America',
] as const;
export type Continent = (typeof CONTINENTS)[number];

const MEMBERS: Readonly<Record<Continent, string>> = {
  Africa:
    'DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG ' +
    'MW ML MR MU YT MA MZ NA NE NG RE RW SH ST SN SC SL SO ZA SS SD TZ TG TN UG EH ZM ZW IO TF',
  Antarctica: 'AQ',
  Asia:
    'AF AM AZ BH BD BT BN KH CN GE HK IN ID IR IQ IL JP JO KZ KW KG LA LB MO MY MV MN MM NP KP ' +
    'OM PK PS PH QA SA SG KR LK SY TW TJ TH TL TR TM AE UZ VN YE',
  Europe:
    'AX AL AD AT BY BE BA BG HR CY CZ DK EE FO FI FR DE GI GR GG HU IS IE IM IT JE XK LV LI LT ' +
    'LU MT MD MC ME NL MK NO PL PT RO RU SM RS SK SI ES SJ SE CH UA GB VA',
  'North America':
    'AI AG AW BS BB BZ BM BQ VG CA KY CR CU CW DM DO SV GL GD GP GT HT HN JM MQ MX MS NI PA PR ' +
    'BL KN LC MF PM VC SX TT TC US VI',
  Oceania: 'AS AU CK FJ PF GU KI MH FM NR NC NZ NU NF MP PW PG PN WS SB TK TO TV VU WF HM CX CC UM',
  'South America': 'AR BO BR CL CO EC FK GF GY PY PE SR UY VE GS BV',
};

const byCode = new Map<string, Continent>();
for (const continent of CONTINENTS) {
  for (const code of MEMBERS[continent].split(' ')) byCode.set(code, continent);
}

/** The continent of a country code, or null for a code the table does not hold. */
export function continentOf(code: string): Continent | null {
  return byCode.get(code) ?? null;
}

/** Every code the table holds (for the tests). */
export const continentCodes = (): ReadonlySet<string> => new Set(byCode.keys());
