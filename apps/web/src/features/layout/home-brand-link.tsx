import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { BrandLogo } from '@/shared/ui/brand-logo';
import styles from './home-brand-link.module.css';

/** The brand's logo leading home, at the top of the sidebar and of the mobile header. */
export function HomeBrandLink({ className }: { className?: string }) {
  return (
    // Named by the brand it shows: a screen reader hears what a sighted user reads.
    <Link
      to={paths.home.getHref()}
      className={className ? `${styles.link} ${className}` : styles.link}
    >
      <BrandLogo />
    </Link>
  );
}
