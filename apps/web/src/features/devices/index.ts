// What the profile's devices summary reads; everything else in this folder is private.
export { fetchDevices, selectDevices, selectDevicesStatus } from './devices-slice';
