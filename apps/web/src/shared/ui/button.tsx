import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'md' | 'sm';
  isFullWidth?: boolean;
};

export function Button({
  variant = 'primary',
  size = 'md',
  isFullWidth = false,
  className,
  type = 'button',
  ...props
}: ButtonProps) {
  const classes = [
    styles.button,
    styles[variant],
    styles[size],
    isFullWidth ? styles.fullWidth : '',
    className ?? '',
  ];
  return <button type={type} className={classes.filter(Boolean).join(' ')} {...props} />;
}
