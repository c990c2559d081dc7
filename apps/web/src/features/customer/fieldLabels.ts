import type { ContactFieldKey } from '@atende/core';
import { phrase } from '../../i18n/phrase';

/** English labels (translated where shown) of the contact's fixed fields. */
export const CONTACT_FIELD_LABELS: Record<ContactFieldKey, string> = {
  name: phrase('Name'),
  phone1: phrase('Phone 1'),
  phone2: phrase('Phone 2'),
  organization: phrase('Organization'),
  email: phrase('Email'),
  gov_id: phrase('Gov ID'),
  customer_id: phrase('Customer ID'),
  zip_code: phrase('ZIP/Postal code'),
  address_line_1: phrase('Address line 1'),
  address_line_2: phrase('Address line 2'),
  city: phrase('City/Department'),
  state: phrase('State/Province/Region'),
  country: phrase('Country/Region'),
  notes: phrase('Notes'),
};
