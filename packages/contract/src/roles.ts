import { z } from 'zod';
import { DELIVERY_MODES, FEATURE_FLAGS, ROLES } from './constants';

export { DELIVERY_MODES, FEATURE_FLAGS, ROLES, type DeliveryMode, type FeatureFlag, type Role } from './constants';

export const RoleSchema = z.enum(ROLES);
export const FeatureFlagSchema = z.enum(FEATURE_FLAGS);
export const DeliveryModeSchema = z.enum(DELIVERY_MODES);
