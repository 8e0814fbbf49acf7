import type { CatalogueItem } from '@portal/contracts/services';
import { useState } from 'react';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card, CardHead } from '@/shared/ui/card';
import { ServerIcon } from '@/shared/ui/icons';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Skeleton } from '@/shared/ui/skeleton';
import { useCatalogueQuery } from './api/services-api';
import styles from './services.module.css';
import { useSiblingLink } from './use-sibling-link';

/** The brand's services on the home page; active ones open the sibling site signed in. */
export function ServiceCatalogue() {
  const catalogue = useCatalogueQuery();
  const sibling = useSiblingLink();

  return (
    <Card className={blocks.stack} aria-labelledby="catalogue-title">
      <CardHead titleId="catalogue-title" title="Сервисы" />
      {catalogue.isFetching && !catalogue.data ? (
        <div className={styles.catalogue} role="status" aria-label="Загрузка сервисов">
          {[0, 1].map((item) => (
            <Skeleton key={item} height={188} radius={14} />
          ))}
        </div>
      ) : null}
      {catalogue.isError && !catalogue.isFetching && !catalogue.data ? (
        <LoadFailed error={catalogue.error} onRetry={() => void catalogue.refetch()} />
      ) : null}
      {catalogue.data && catalogue.data.length === 0 ? (
        <p className={styles.emptyText}>На стадии разработки</p>
      ) : null}
      {catalogue.data && catalogue.data.length > 0 ? (
        <ul className={styles.catalogue}>
          {catalogue.data.map((item) => (
            <CatalogueTile
              key={`${item.title}-${item.link}`}
              item={item}
              isOpening={sibling.openingLink === item.link}
              isDisabled={sibling.openingLink !== null}
              onOpen={() => void sibling.open(item.link)}
            />
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

type CatalogueTileProps = {
  item: CatalogueItem;
  isOpening: boolean;
  isDisabled: boolean;
  onOpen: () => void;
};

function CatalogueTile({ item, isOpening, isDisabled, onOpen }: CatalogueTileProps) {
  const [isImageBroken, setIsImageBroken] = useState(false);
  return (
    <li className={styles.tile} data-status={item.status}>
      <div className={styles.tileImage}>
        {item.imgUrl && !isImageBroken ? (
          <img src={item.imgUrl} alt="" loading="lazy" onError={() => setIsImageBroken(true)} />
        ) : (
          <ServerIcon width={40} height={40} />
        )}
        {item.status === 'soon' ? <span className={styles.badgeSoon}>Скоро</span> : null}
      </div>
      <div className={styles.tileBody}>
        <h3 className={styles.tileTitle}>{item.title}</h3>
        <p className={styles.tileText}>{item.description}</p>
      </div>
      {item.status === 'soon' ? (
        <Button variant="secondary" disabled isFullWidth>
          Скоро
        </Button>
      ) : (
        <Button
          variant={item.status === 'active' ? 'primary' : 'secondary'}
          isFullWidth
          disabled={item.status !== 'active' || isDisabled}
          onClick={onOpen}
          aria-label={`Открыть: ${item.title}`}
        >
          {isOpening ? 'Открываем…' : 'Открыть'}
        </Button>
      )}
    </li>
  );
}
