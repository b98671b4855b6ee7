// The CRM's records and its deterministic starting data: 40 contacts and 15 deals, the same on every build.

export interface Contact {
  id: string;
  name: string;
  email: string;
  company: string;
  phone: string | null;
}

export type DealStage = 'open' | 'won' | 'lost';

export interface Deal {
  id: string;
  contact_id: string;
  title: string;
  /** Whole US dollars. */
  amount: number;
  stage: DealStage;
}

export interface CrmData {
  contacts: Contact[];
  deals: Deal[];
}

const FIRST = ['Ada', 'Bruno', 'Chioma', 'Dmitri', 'Elif', 'Farah', 'Goran', 'Hana', 'Ivan', 'Jomo'];
const LAST = ['Okafor', 'Lindqvist', 'Haddad', 'Moreau', 'Tanaka', 'Novak', 'Reyes', 'Brennan'];
const COMPANIES = ['Acme Logistics', 'Borealis Labs', 'Cobalt Foods', 'Delta Freight', 'Ember Health'];
const PRODUCTS = ['annual licence', 'onboarding package', 'support renewal', 'fleet expansion', 'pilot'];

export const CONTACT_COUNT = 40;
export const DEAL_COUNT = 15;

/** `c_001`, `d_015`, …: a prefix and a number of at least three digits. */
export const recordId = (prefix: string, n: number): string => `${prefix}_${String(n).padStart(3, '0')}`;

const domainOf = (company: string): string => `${company.split(' ')[0]!.toLowerCase()}.example`;

function contact(n: number): Contact {
  const first = FIRST[(n - 1) % FIRST.length]!;
  const last = LAST[(n * 3) % LAST.length]!;
  const company = COMPANIES[(n - 1) % COMPANIES.length]!;
  return {
    id: recordId('c', n),
    name: `${first} ${last}`,
    email: `${first}.${last}${n}@${domainOf(company)}`.toLowerCase(),
    company,
    phone: n % 3 === 0 ? null : `+1-555-01${String(n).padStart(2, '0')}`,
  };
}

function deal(n: number): Deal {
  // Deals 1–12 go to every third contact from c_001; 13–15 give c_001, c_004 and c_007 a second deal.
  const owner = contact(((n - 1) % 12) * 3 + 1);
  return {
    id: recordId('d', n),
    contact_id: owner.id,
    title: `${owner.company}: ${PRODUCTS[n % PRODUCTS.length]}`,
    amount: 1000 + n * 750,
    stage: n % 4 === 0 ? 'won' : n % 5 === 0 ? 'lost' : 'open',
  };
}

const numbers = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);

/** A fresh copy of the starting data. */
export function defaultData(): CrmData {
  return { contacts: numbers(CONTACT_COUNT).map(contact), deals: numbers(DEAL_COUNT).map(deal) };
}
