/**
 * What counts as a country for the world share: the 193 UN member states and the two observer
 * states (the Holy See, Palestine), 195 in all, the figure most people give for "the countries
 * of the world". Territories (Greenland, Puerto Rico, Hong Kong, Gibraltar...) and Kosovo and
 * Taiwan are listed among a traveller's countries with their own code but are not part of the
 * share, so it never goes over 100 %.
 */
const UN_MEMBERS_AND_OBSERVERS =
  'AF AL DZ AD AO AG AR AM AU AT AZ BS BH BD BB BY BE BZ BJ BT BO BA BW BR BN BG BF BI CV KH ' +
  'CM CA CF TD CL CN CO KM CG CD CR CI HR CU CY CZ DK DJ DM DO EC EG SV GQ ER EE SZ ET FJ FI ' +
  'FR GA GM GE DE GH GR GD GT GN GW GY HT HN HU IS IN ID IR IQ IE IL IT JM JP JO KZ KE KI KP ' +
  'KR KW KG LA LV LB LS LR LY LI LT LU MG MW MY MV ML MT MH MR MU MX FM MD MC MN ME MA MZ MM ' +
  'NA NR NP NL NZ NI NE NG MK NO OM PK PW PA PG PY PE PH PL PT QA RO RU RW KN LC VC WS SM ST ' +
  'SA SN RS SC SL SG SK SI SB SO ZA SS ES LK SD SR SE CH SY TJ TZ TH TL TG TO TT TN TR TM TV ' +
  'UG UA AE GB US UY UZ VU VE VN YE ZM ZW VA PS';

export const WORLD_COUNTRIES: ReadonlySet<string> = new Set(UN_MEMBERS_AND_OBSERVERS.split(' '));

const displayNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const names = new Map<string, string>();

/**
 * The English name of a country code from the runtime's ICU data (CLDR), as services/places
 * names countries: "FR" -> "France", "XK" -> "Kosovo", "HK" -> "Hong Kong SAR China".
 */
export function countryName(code: string): string {
  let name = names.get(code);
  if (name === undefined) {
    name = displayNames.of(code) ?? code;
    names.set(code, name);
  }
  return name;
}
