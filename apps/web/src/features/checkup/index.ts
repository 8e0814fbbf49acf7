// What other places show of the security checkup: the profile's card and the home page's line.
export { CheckupCard } from './checkup-card';
export { CheckupLine } from './checkup-line';
