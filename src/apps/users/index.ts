import type { AppModule } from '../app-module.js';
import { group } from './group.model.js';
import { objectPermission } from './object-permission.model.js';
import { registerUserRoutes, USER_ROUTE_DOCS } from './user.routes.js';
import { token } from './token.model.js';
import { user } from './user.model.js';

export const usersApp: AppModule = {
  models: [user, group, token, objectPermission],
  extraEndpoints: ['config'],
  routes: [registerUserRoutes],
  docs: USER_ROUTE_DOCS,
};
