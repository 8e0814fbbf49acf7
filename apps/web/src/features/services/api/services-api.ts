import {
  type CatalogueItem,
  catalogueItemSchema,
  type OwnerService,
  ownerServicesAnswerSchema,
} from '@portal/contracts/services';
import { z } from 'zod';
import { portalApi } from '@/shared/api/portal-api';

const catalogueAnswerSchema = z.array(catalogueItemSchema);

/** The home page's services: the brand's catalogue and the caller's purchased ones. */
export const servicesApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** The brand's service catalogue, configured on the server (anyone may read it). */
    catalogue: build.query<CatalogueItem[], void>({
      query: () => ({ url: '/serversms/api/Servers/catalogue', isPublic: true }),
      transformResponse: (answer: unknown) => catalogueAnswerSchema.parse(answer),
      providesTags: ['Catalogue'],
    }),
    /** The caller's purchased services (`GET /serversms/api/Servers/owner/services`). */
    ownerServices: build.query<OwnerService[], void>({
      query: () => ({ url: '/serversms/api/Servers/owner/services' }),
      transformResponse: (answer: unknown) => ownerServicesAnswerSchema.parse(answer),
      providesTags: ['OwnerServices'],
    }),
  }),
});

export const { useCatalogueQuery, useOwnerServicesQuery } = servicesApi;
