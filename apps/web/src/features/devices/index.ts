// What other features read of devices; everything else in this folder is private.
export { useDevicesQuery } from './api/devices-api';
export { describeDevice } from './describe-device';
