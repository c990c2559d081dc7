import { ErrorBodySchema } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { apiHandlingCodes } from '../../api/client';

/** Template calls whose 409 template_in_use the screen answers itself, with a confirmation. */
export const templateApi = apiHandlingCodes('template_in_use');

/** The campaigns a refused template change named (the server's params.campaigns), or null for any other failure. */
export function campaignsUsingTemplate(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'template_in_use') return null;
  const campaigns = ErrorBodySchema.safeParse(error.body).data?.params?.campaigns;
  return typeof campaigns === 'string' ? campaigns : '';
}
