// fieldTable: which fields of a list item can be filtered and ordered on, and as what type.
import { describe, expect, it } from 'vitest';
import { fieldTable } from '#sandbox/filter/fields.js';
import * as fixtures from './fixtures/fields.js';

const entries = (schema: unknown) => Object.fromEntries([...fieldTable(schema)].map(([name, info]) => [name, `${info.path.join('.')}: ${info.type}`]));

describe('fieldTable', () => {
  it('types scalars from type and format, under lower-cased names', () => {
    expect(entries(fixtures.scalars)).toEqual({
      id: 'id: string',
      lastname: 'lastName: string',
      employeenumber: 'employeeNumber: integer',
      hourlywage: 'hourlyWage: number',
      isactive: 'isActive: boolean',
      dateofbirth: 'dateOfBirth: date',
      lastmodified: 'lastModified: date-time',
    });
  });

  it('reads nullable types (type arrays, nullable, oneOf with null) and leaves out mixed types', () => {
    expect(entries(fixtures.nullable)).toEqual({ enddate: 'endDate: date', hours: 'hours: number', iban: 'iban: string' });
  });

  it('names nested fields with dots, through nullable objects', () => {
    expect(entries(fixtures.nested)).toEqual({
      'name.lastname': 'name.lastName: string',
      'name.initials': 'name.initials: string',
      'address.city': 'address.city: string',
      'address.country.key': 'address.country.key: integer',
      'address.country.value': 'address.country.value: string',
      'address.country': 'address.country.key: integer',
      'address.geo.lat': 'address.geo.lat: number',
    });
  });

  it('maps a metadata object named bare to its key, whatever the key type', () => {
    expect(entries(fixtures.metadataFields)).toEqual({
      'gender.key': 'gender.key: integer',
      'gender.value': 'gender.value: string',
      gender: 'gender.key: integer',
      'department.key': 'department.key: string',
      'department.value': 'department.value: string',
      'department.code': 'department.code: string',
      department: 'department.key: string',
      'notmetadata.key': 'notMetadata.key: integer',
    });
  });

  it('leaves arrays out', () => {
    expect(entries(fixtures.arrays)).toEqual({ name: 'name: string' });
  });

  it('merges allOf and anyOf members', () => {
    expect(entries(fixtures.composed)).toEqual({ id: 'id: string', startdate: 'startDate: date', extra: 'extra: boolean' });
  });

  it('stops at a schema that contains itself', () => {
    expect(entries(fixtures.recursive)).toEqual({ name: 'name: string' });
  });

  it('gives an empty table for what is not an object schema', () => {
    expect(fieldTable(undefined).size).toBe(0);
    expect(fieldTable({ type: 'string' }).size).toBe(0);
  });
});
