/**
 * ISO 3166-1 numeric (world-atlas's feature ids) to alpha-2, for every id in world-atlas's
 * countries-50m and countries-10m (written out once; `test/codes.test.ts` checks it covers both
 * files, that every code is a region the runtime names, and that it matches the dataset's names).
 */
const NUMERIC_ALPHA2 =
  '004:AF 008:AL 010:AQ 012:DZ 016:AS 020:AD 024:AO 028:AG 031:AZ 032:AR 036:AU 040:AT ' +
  '044:BS 048:BH 050:BD 051:AM 052:BB 056:BE 060:BM 064:BT 068:BO 070:BA 072:BW 076:BR ' +
  '084:BZ 086:IO 090:SB 092:VG 096:BN 100:BG 104:MM 108:BI 112:BY 116:KH 120:CM 124:CA ' +
  '132:CV 136:KY 140:CF 144:LK 148:TD 152:CL 156:CN 158:TW 170:CO 174:KM 178:CG 180:CD ' +
  '184:CK 188:CR 191:HR 192:CU 196:CY 203:CZ 204:BJ 208:DK 212:DM 214:DO 218:EC 222:SV ' +
  '226:GQ 231:ET 232:ER 233:EE 234:FO 238:FK 239:GS 242:FJ 246:FI 248:AX 250:FR 258:PF ' +
  '260:TF 262:DJ 266:GA 268:GE 270:GM 275:PS 276:DE 288:GH 292:GI 296:KI 300:GR 304:GL ' +
  '308:GD 316:GU 320:GT 324:GN 328:GY 332:HT 334:HM 336:VA 340:HN 344:HK 348:HU 352:IS ' +
  '356:IN 360:ID 364:IR 368:IQ 372:IE 376:IL 380:IT 384:CI 388:JM 392:JP 398:KZ 400:JO ' +
  '404:KE 408:KP 410:KR 414:KW 417:KG 418:LA 422:LB 426:LS 428:LV 430:LR 434:LY 438:LI ' +
  '440:LT 442:LU 446:MO 450:MG 454:MW 458:MY 462:MV 466:ML 470:MT 478:MR 480:MU 484:MX ' +
  '492:MC 496:MN 498:MD 499:ME 500:MS 504:MA 508:MZ 512:OM 516:NA 520:NR 524:NP 528:NL ' +
  '531:CW 533:AW 534:SX 540:NC 548:VU 554:NZ 558:NI 562:NE 566:NG 570:NU 574:NF 578:NO ' +
  '580:MP 581:UM 583:FM 584:MH 585:PW 586:PK 591:PA 598:PG 600:PY 604:PE 608:PH 612:PN ' +
  '616:PL 620:PT 624:GW 626:TL 630:PR 634:QA 642:RO 643:RU 646:RW 652:BL 654:SH 659:KN ' +
  '660:AI 662:LC 663:MF 666:PM 670:VC 674:SM 678:ST 682:SA 686:SN 688:RS 690:SC 694:SL ' +
  '702:SG 703:SK 704:VN 705:SI 706:SO 710:ZA 716:ZW 724:ES 728:SS 729:SD 732:EH 740:SR ' +
  '748:SZ 752:SE 756:CH 760:SY 762:TJ 764:TH 768:TG 776:TO 780:TT 784:AE 788:TN 792:TR ' +
  '795:TM 796:TC 798:TV 800:UG 804:UA 807:MK 818:EG 826:GB 831:GG 832:JE 833:IM 834:TZ ' +
  '840:US 850:VI 854:BF 858:UY 860:UZ 862:VE 876:WF 882:WS 887:YE 894:ZM';

export const NUMERIC_TO_ALPHA2: Readonly<Record<string, string>> = Object.fromEntries(
  NUMERIC_ALPHA2.split(' ').map((pair) => pair.split(':') as [string, string]),
);

/**
 * The features world-atlas gives no id (Natural Earth's own units), by their dataset name. A
 * function of the longitude where one feature holds two ISO territories.
 * - Kosovo: `XK`, the user-assigned code the EU, Intl (CLDR) and most apps use.
 * - N. Cyprus, Somaliland: the ISO country they belong to (CY, SO); neither has an ISO code.
 * - Siachen Glacier: IN, which has administered it since 1984 (Pakistan claims it).
 * - Indian Ocean Ter.: Christmas Island (CX, east of 100° E) and the Cocos (Keeling) Islands (CC).
 * - (10m only) Akrotiri, Dhekelia, the Cyprus U.N. Buffer Zone: CY; Baikonur: KZ; USNB
 *   Guantanamo Bay: CU; Clipperton I.: FR; Coral Sea Is.: AU; Scarborough Reef, Spratly Is.,
 *   Bajo Nuevo Bank, Serranilla Bank: disputed reefs, no country (null).
 */
export const UNCODED_FEATURES: Readonly<
  Record<string, string | ((longitude: number) => string) | null>
> = {
  Kosovo: 'XK',
  'N. Cyprus': 'CY',
  Somaliland: 'SO',
  'Siachen Glacier': 'IN',
  'Indian Ocean Ter.': (longitude) => (longitude > 100 ? 'CX' : 'CC'),
  Akrotiri: 'CY',
  Dhekelia: 'CY',
  'Cyprus U.N. Buffer Zone': 'CY',
  Baikonur: 'KZ',
  'USNB Guantanamo Bay': 'CU',
  'Clipperton I.': 'FR',
  'Coral Sea Is.': 'AU',
  'Scarborough Reef': null,
  'Spratly Is.': null,
  'Bajo Nuevo Bank': null,
  'Serranilla Bank': null,
};

/**
 * Parts of a Natural Earth country that ISO 3166-1 codes on their own, by a box around them
 * (`[west, south, east, north]`; a polygon whose first point is in the box takes the code):
 * France's overseas regions, the Caribbean Netherlands, Svalbard and Jan Mayen. And Crimea,
 * which Natural Earth draws as Russia's (its "de facto" view): the atlas follows ISO 3166 and
 * the UN (General Assembly resolution 68/262), Ukraine.
 */
export const PART_CODES: Readonly<
  Record<string, ReadonlyArray<readonly [string, number, number, number, number]>>
> = {
  FR: [
    ['GF', -55, 1.5, -51, 6.5],
    ['GP', -62, 15.8, -60.9, 16.6],
    ['MQ', -61.3, 14.3, -60.7, 15],
    ['RE', 55, -21.5, 56, -20.7],
    ['YT', 44.9, -13.1, 45.4, -12.5],
  ],
  NL: [
    ['BQ', -68.5, 11.9, -68.1, 12.4],
    ['BQ', -63.3, 17.4, -62.9, 17.7],
  ],
  NO: [
    ['SJ', 10, 74, 35, 81],
    ['SJ', -9.2, 70.7, -7.8, 71.2],
  ],
  RU: [['UA', 32, 44, 37, 46.3]],
};

/**
 * The code of one feature's polygon: by ISO numeric id, else by its Natural Earth name, then by
 * `PART_CODES` from the polygon's first point. Shared by the lookup and the browser's atlas map
 * (`@wayfarer/atlas/codes`, free of the outlines).
 */
export function polygonCode(
  id: string | number | undefined,
  name: string,
  [longitude = 0, latitude = 0]: readonly number[],
): string | null {
  let code: string | null | undefined;
  if (id !== undefined) {
    code = NUMERIC_TO_ALPHA2[String(id).padStart(3, '0')];
    if (!code) throw new Error(`world-atlas id ${id} (${name}) has no alpha-2 code in codes.ts`);
  } else {
    if (!(name in UNCODED_FEATURES))
      throw new Error(`world-atlas feature ${name} has no id and no rule in codes.ts`);
    const rule = UNCODED_FEATURES[name];
    code = typeof rule === 'function' ? rule(longitude) : (rule ?? null);
  }
  const part = code
    ? PART_CODES[code]?.find(
        ([, w, s, e, n]) => longitude >= w && longitude <= e && latitude >= s && latitude <= n,
      )
    : undefined;
  return part ? part[0] : code;
}
