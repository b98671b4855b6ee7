import { z } from 'zod';

/** The words a yes/no setting takes, wherever one is read (query strings, environment variables). */
export const FLAG_WORDS = ['1', '0', 'true', 'false'] as const;

export const isFlagWord = (word: string): word is (typeof FLAG_WORDS)[number] => (FLAG_WORDS as readonly string[]).includes(word);

/** A yes/no word as a boolean. */
export const flagValue = (word: (typeof FLAG_WORDS)[number]): boolean => word === '1' || word === 'true';

/** A yes/no setting in a query string or the environment: 1, 0, true or false. */
export const Flag = z.enum(FLAG_WORDS, '1, 0, true or false').transform(flagValue);
