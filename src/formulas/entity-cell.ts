/**
 * An entity value (Excel's data type) as a formula hands it back: plain data in
 * the shape of `Excel.EntityCellValue` (@types/office-js; ExcelApi 1.16), with
 * no Office types here (this is the pure core): src/office/custom-functions.ts
 * assigns it to Excel's own types, so `tsc` checks the shapes at build time.
 *
 * Shapes after Microsoft's pages: "Use cards with entity value data types"
 * (learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card:
 * `properties` each with `type` and `basicValue`, `layouts.card` with `title`,
 * `subTitle`, `mainImage` and `sections` of layout "List" or "Table",
 * `provider` for the card's attribution) and "Use data types with custom
 * functions" (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts:
 * a custom function returns one on CustomFunctionsRuntime 1.4).
 *
 * Where the runtime is older (1.3, perpetual Office) the workbook gets the
 * entity's text instead (cells.ts, workbookCell): never an error.
 */
/** Excel's FormattedNumberCellValue (@types/office-js), as plain data: CustomFunctionsRuntime 1.4. */
export interface FormattedNumber {
  type: 'FormattedNumber';
  basicValue: number;
  numberFormat: string;
}

/** Excel's property exclusions (CellValuePropertyMetadataExclusions). */
export interface PropertyExclusions {
  cardView?: boolean;
  autoComplete?: boolean;
  calcCompare?: boolean;
  dotNotation?: boolean;
}

/** Excel's property metadata (CellValuePropertyMetadata): a sublabel, attribution, exclusions. */
export interface PropertyMetadata {
  sublabel?: string;
  attribution?: { sourceAddress?: string; sourceText?: string; licenseAddress?: string; licenseText?: string }[];
  excludeFrom?: PropertyExclusions;
}

/** A property's value: StringCellValue, DoubleCellValue, BooleanCellValue, FormattedNumberCellValue or WebImageCellValue. */
export type EntityProperty = (
  | { type: 'String'; basicValue: string }
  | { type: 'Double'; basicValue: number }
  | { type: 'Boolean'; basicValue: boolean }
  | FormattedNumber
  | { type: 'WebImage'; address: string; altText?: string }
) & { propertyMetadata?: PropertyMetadata };

/** A card section (CardLayoutListSection / CardLayoutTableSection, ExcelApi 1.16; TwoColumn needs 1.19: not used). */
export interface CardSection {
  layout: 'List' | 'Table';
  title?: string;
  collapsible?: boolean;
  collapsed?: boolean;
  properties: string[];
}

export interface EntityValue {
  type: 'Entity';
  /** What the cell shows. */
  text: string;
  properties: Record<string, EntityProperty>;
  layouts?: {
    /** EntityCompactLayout: the icon that opens the card (an EntityCompactLayoutIcons name). */
    compact?: { icon?: string };
    card?: {
      title?: string | { property: string };
      subTitle?: { property: string };
      mainImage?: { property: string };
      sections?: CardSection[];
    };
  };
  /** CellValueProviderAttributes: who the data is from, shown on the card. */
  provider?: { description?: string; logoSourceAddress?: string; logoTargetAddress?: string };
}

/** An entity in a result; its date properties are 1900-system serials until the workbook's system is known. */
export class EntityCell {
  constructor(
    readonly value: EntityValue,
    /** Properties holding a date serial (FormattedNumber): moved into the workbook's date system. */
    readonly dateProperties: readonly string[] = [],
  ) {}

  get text(): string {
    return this.value.text;
  }

  /** Where a cell is shown as text (the task pane's preview, a 1.3 runtime): the entity's text. */
  toString(): string {
    return this.value.text;
  }

  toJSON(): EntityValue {
    return this.value;
  }

  /** The entity with its dates as the workbook holds them (`serialIn` maps a 1900 serial to the workbook's). */
  inWorkbook(serialIn: (serial1900: number) => number): EntityValue {
    if (this.dateProperties.length === 0) return this.value;
    const properties = { ...this.value.properties };
    for (const name of this.dateProperties) {
      const p = properties[name];
      if (p?.type === 'FormattedNumber') properties[name] = { ...p, basicValue: serialIn(p.basicValue) };
    }
    return { ...this.value, properties };
  }
}
