// The generators of Dutch data the seed and the fixtures share: a deterministic dice (a fixed
// pseudo-random sequence, so the same seed gives the same data), names, places, and values that
// pass their checks (citizen service numbers the 11-test, IBANs mod-97, postal codes `1234 AB`).
import { isValidCitizenServiceNumber, isValidIban } from '../domain/employments/person.js';

// ---- deterministic randomness ---------------------------------------------------------------

export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Dice {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  digits(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += String(this.int(0, 9));
    return out;
  }
  date(from: string, to: string): string {
    const a = Date.parse(`${from}T00:00:00Z`);
    const b = Date.parse(`${to}T00:00:00Z`);
    return new Date(a + this.int(0, Math.max(0, Math.round((b - a) / 86_400_000))) * 86_400_000).toISOString().slice(0, 10);
  }
}

// ---- Dutch data -----------------------------------------------------------------------------

export const MALE = ['Jan', 'Pieter', 'Kees', 'Daan', 'Sem', 'Lucas', 'Thomas', 'Ruben', 'Bram', 'Jeroen', 'Mark', 'Tim', 'Niels', 'Rick', 'Mohamed', 'Youssef', 'Dennis', 'Erik', 'Wouter', 'Joost', 'Sander', 'Koen', 'Hans', 'Gerrit'];
export const FEMALE = ['Anna', 'Sanne', 'Lotte', 'Emma', 'Julia', 'Fleur', 'Lisa', 'Eva', 'Anouk', 'Sophie', 'Iris', 'Marloes', 'Femke', 'Ingrid', 'Petra', 'Karin', 'Noor', 'Sara', 'Fatima', 'Esther', 'Linda', 'Annemiek', 'Wendy', 'Yvonne'];
export const SURNAMES: Array<[string, string]> = [
  ['de', 'Jong'], ['', 'Jansen'], ['de', 'Vries'], ['van den', 'Berg'], ['van', 'Dijk'], ['', 'Bakker'], ['', 'Visser'], ['', 'Smit'],
  ['', 'Meijer'], ['de', 'Boer'], ['', 'Mulder'], ['de', 'Groot'], ['', 'Bos'], ['', 'Vos'], ['', 'Peters'], ['', 'Hendriks'],
  ['van', 'Leeuwen'], ['', 'Dekker'], ['', 'Brouwer'], ['de', 'Wit'], ['', 'Dijkstra'], ['', 'Smits'], ['de', 'Graaf'], ['van der', 'Meer'],
  ['van der', 'Linden'], ['', 'Kok'], ['', 'Jacobs'], ['de', 'Haan'], ['', 'Vermeulen'], ['van den', 'Heuvel'], ['van der', 'Veen'], ['van den', 'Broek'],
  ['de', 'Bruijn'], ['', 'Schouten'], ['van', 'Beek'], ['', 'Willems'], ['van', 'Vliet'], ['', 'Hoekstra'], ['', 'Koster'], ['', 'Prins'],
  ['', 'El Amrani'], ['', 'Yilmaz'], ['', 'Kowalski'], ['ter', 'Horst'], ['', 'Verhoeven'], ['', 'Timmermans'], ['', 'Postma'], ['', 'Kuipers'],
];
export const PLACES: Array<{ city: string; postal: [number, number]; streets: string[]; phone: string }> = [
  { city: 'Utrecht', postal: [3511, 3585], streets: ['Biltstraat', 'Amsterdamsestraatweg', 'Oudegracht', 'Kanaalstraat', 'Twijnstraat'], phone: '030' },
  { city: 'Nieuwegein', postal: [3431, 3439], streets: ['Ravenswade', 'Zuidstedeweg', 'Martinbaan', 'Nedereindseweg'], phone: '030' },
  { city: 'Amersfoort', postal: [3811, 3829], streets: ['Kruiskamp', 'Leusderweg', 'Langestraat', 'Hogeweg'], phone: '033' },
  { city: 'Eindhoven', postal: [5611, 5658], streets: ['Hoogstraat', 'Stratumseind', 'Kruisstraat', 'Woenselse Markt'], phone: '040' },
  { city: 'Zwolle', postal: [8011, 8043], streets: ['Assendorperstraat', 'Diezerstraat', 'Thomas a Kempisstraat', 'Middelweg'], phone: '038' },
  { city: "'s-Hertogenbosch", postal: [5211, 5237], streets: ['Hinthamerstraat', 'Vughterweg', 'Orthenstraat', 'Graafseweg'], phone: '073' },
  { city: 'Amsterdam', postal: [1011, 1109], streets: ['Kinkerstraat', 'Javastraat', 'Ferdinand Bolstraat', 'Rijnstraat'], phone: '020' },
  { city: 'Rotterdam', postal: [3011, 3089], streets: ['Nieuwe Binnenweg', 'Zwart Janstraat', 'Beijerlandselaan', 'Meent'], phone: '010' },
];
export const BANKS = ['INGB', 'RABO', 'ABNA', 'SNSB', 'TRIO', 'ASNB', 'KNAB'];
export const BICS: Record<string, string> = { INGB: 'INGBNL2A', RABO: 'RABONL2U', ABNA: 'ABNANL2A', SNSB: 'SNSBNL2A', TRIO: 'TRIONL2U', ASNB: 'ASNBNL21', KNAB: 'KNABNL2H' };

export function postalCode(d: Dice, range: [number, number]): string {
  const letters = 'ABCDEFGHJKLMNPRTVWXZ';
  let pair: string;
  do pair = d.pick([...letters]) + d.pick([...letters]);
  while (['SA', 'SD', 'SS'].includes(pair));
  return `${d.int(range[0], range[1])} ${pair}`;
}

export function citizenServiceNumber(d: Dice, taken: Set<string>): string {
  for (;;) {
    const first = String(d.int(1, 6)) + d.digits(7);
    let sum = 0;
    for (let i = 0; i < 8; i++) sum += (9 - i) * Number(first[i]);
    const check = sum % 11;
    if (check === 10) continue;
    const bsn = first + String(check);
    if (isValidCitizenServiceNumber(bsn) && !taken.has(bsn)) {
      taken.add(bsn);
      return bsn;
    }
  }
}

export function iban(d: Dice): { iban: string; bic: string } {
  const bank = d.pick(BANKS);
  const account = d.digits(10);
  const numeric = [...`${bank}${account}NL00`].map((ch) => (/[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch)).join('');
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  const value = `NL${String(98 - remainder).padStart(2, '0')}${bank}${account}`;
  if (!isValidIban(value)) throw new Error(`generated IBAN ${value} fails mod-97`);
  return { iban: value, bic: BICS[bank]! };
}

export const initialsOf = (firstName: string, extra: string | null): string => `${firstName[0]}.${extra ? `${extra}.` : ''}`;

