// What other features read of devices; everything else in this folder is private.
export { describeDevice } from './describe-device';
export { fetchDevices, selectDevices, selectDevicesStatus } from './devices-slice';
