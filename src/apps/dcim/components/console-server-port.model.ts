/** Console server ports (NetBox 3.4 ConsoleServerPort): the console server's side of a console link. */
import { defineConsolePort } from './console-port.model.js';

export const consoleServerPort = defineConsolePort(
  'dcim.consoleserverport',
  'console-server-ports',
  'console server port',
);
