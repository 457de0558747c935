/** The folder of the built application (docs/admin-ui.md, "Package and serving"). */
export declare const dir: URL;
