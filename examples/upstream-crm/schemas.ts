import { z } from 'zod';

// What the routes accept. openapi.json describes the same rules; its test checks the two agree.

const text = (max: number) => z.string().trim().min(1).max(max);
const contactFields = {
  name: text(120),
  email: z.email().max(254),
  company: text(120),
  phone: z.string().max(40).nullable().optional(),
};

export const ContactInput = z.strictObject(contactFields);

export const ContactPatch = z.strictObject(z.object(contactFields).partial().shape).refine((patch) => Object.keys(patch).length > 0, {
  message: 'Give at least one field to change.',
  // Only for an otherwise valid body: an unknown field is reported as such.
  when: (payload) => payload.issues.length === 0,
});

export const ContactQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  cursor: z.string().min(1).optional(),
  q: z.string().min(1).max(120).optional(),
});

export const DealQuery = z.object({
  contact_id: z
    .string()
    .regex(/^c_[0-9]{3,}$/, 'A contact id such as c_001.')
    .optional(),
});

export const CloseDeal = z.strictObject({ outcome: z.enum(['won', 'lost']) });

/** The cache-control of a list's answer: a client may reuse it briefly. */
export const LIST_CACHE = 'private, max-age=30';
