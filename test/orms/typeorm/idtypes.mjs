// TypeORM and the idtypes types: copy this file. TypeORM refuses a column type it does not list
// (DataTypeNotSupportedError), so add the four to the Postgres driver's list before initialize(); its
// schema diff reads a column's type back by name (regtype), so `type: 'timeid'` then compares equal and
// migration:generate has nothing to change. IDs are strings both ways.
export const idTypes = ['timeid', 'tbsl', 'uid11', 'scru160'];

export function withIdTypes(dataSource) {
	dataSource.driver.supportedDataTypes.push(...idTypes.filter((t) => !dataSource.driver.supportedDataTypes.includes(t)));
	return dataSource;
}

// A primary key of TYPE filled by the column DEFAULT, read back by RETURNING on insert.
export const generatedId = (type) => ({ type, primary: true, default: () => `${type}_generate()` });
