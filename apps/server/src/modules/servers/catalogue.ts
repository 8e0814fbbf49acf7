import { type CatalogueItem, catalogueItemSchema } from '@portal/contracts/services';
import { z } from 'zod';
import { type Config, ConfigError } from '../../config.js';

/** The brand's catalogue on the home page: hosting and the game launcher, both active. */
function defaultCatalogue(config: Config): CatalogueItem[] {
  return [
    {
      imgUrl: '/images/catalogue/hosting.svg',
      title: 'Хостинг игровых серверов',
      description: 'Игровые серверы с защитой от DDoS-атак и удобной панелью управления',
      link: config.HOSTING_URL,
      status: 'active',
    },
    {
      imgUrl: '/images/catalogue/launcher.svg',
      title: 'Игровой лаунчер',
      description: 'Лаунчер для быстрого входа на серверы проекта',
      link: config.LAUNCHER_URL,
      status: 'active',
    },
  ];
}

/** SERVICE_CATALOGUE (a JSON array) when set, else the default; checked once, at start. */
export function loadCatalogue(config: Config): CatalogueItem[] {
  if (!config.SERVICE_CATALOGUE.trim()) return defaultCatalogue(config);
  let value: unknown;
  try {
    value = JSON.parse(config.SERVICE_CATALOGUE);
  } catch {
    throw new ConfigError(['SERVICE_CATALOGUE: не JSON']);
  }
  const parsed = z.array(catalogueItemSchema).safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `SERVICE_CATALOGUE.${issue.path.join('.')}: ${issue.message}`,
      ),
    );
  }
  return parsed.data;
}
