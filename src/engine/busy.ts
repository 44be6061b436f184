/** The code a cell shows while the add-in is still calculating its value (Excel's #BUSY!). */
export const BUSY_CODE = '#BUSY!';
