import type { AppModule } from '../app-module.js';
import { contactAssignment } from './contact-assignment.model.js';
import { contactGroup } from './contact-group.model.js';
import { contactRole } from './contact-role.model.js';
import { contact } from './contact.model.js';
import { tenantGroup } from './tenant-group.model.js';
import { tenant } from './tenant.model.js';

export const tenancyApp: AppModule = {
  models: [tenantGroup, tenant, contactGroup, contactRole, contact, contactAssignment],
};
