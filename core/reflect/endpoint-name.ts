/** The name of a server-configured LLM endpoint (zod only, so the API contract can share it). */
import { z } from 'zod';

export const endpointName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'an endpoint name is 1-64 letters, digits, ".", "_" or "-"');
