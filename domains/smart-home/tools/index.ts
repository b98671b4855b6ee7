import getUserInventory from './get_user_inventory.js';
import getDeviceDetails from './get_device_details.js';
import getDeviceTelemetry from './get_device_telemetry.js';
import getGroupDevices from './get_group_devices.js';
import powerOn from './power_on.js';
import powerOff from './power_off.js';
import brightnessAdjust from './brightness_adjust.js';
import colorSet from './color_set.js';
import temperatureSet from './temperature_set.js';
import modeSet from './mode_set.js';
import lockLock from './lock_lock.js';
import lockUnlock from './lock_unlock.js';
import lockStatus from './lock_status.js';
import openOpen from './open_open.js';
import openClose from './open_close.js';
import openSetPosition from './open_set_position.js';
import volumeAdjust from './volume_adjust.js';
import channelChange from './channel_change.js';
import searchMedia from './search_media.js';
import getMediaDetails from './get_media_details.js';
import play from './play.js';
import pause from './pause.js';
import resume from './resume.js';
import stopPlayback from './stop.js';
import nextItem from './next.js';
import createAlarm from './create_alarm.js';
import getAlarms from './get_alarms.js';
import deleteAlarm from './delete_alarm.js';
import getNotifications from './get_notifications.js';
import getEnergyUsage from './get_energy_usage.js';

/** The smart-home tools, in listing order: the home and its devices, device control, media, alarms, notifications, energy. */
export const smartHomeTools = [
  getUserInventory,
  getDeviceDetails,
  getDeviceTelemetry,
  getGroupDevices,
  powerOn,
  powerOff,
  brightnessAdjust,
  colorSet,
  temperatureSet,
  modeSet,
  lockLock,
  lockUnlock,
  lockStatus,
  openOpen,
  openClose,
  openSetPosition,
  volumeAdjust,
  channelChange,
  searchMedia,
  getMediaDetails,
  play,
  pause,
  resume,
  stopPlayback,
  nextItem,
  createAlarm,
  getAlarms,
  deleteAlarm,
  getNotifications,
  getEnergyUsage,
] as const;

/** The name of any tool the smart-home domain lists. */
export type SmartHomeToolName = (typeof smartHomeTools)[number]['name'];
